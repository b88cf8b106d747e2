<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="slope_without_heights" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="../test_tiles.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" value="slope"/>
  </properties>
 </tile>
</tileset>
