<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="kinds_tiles" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="test_tiles.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="1" type="crumble">
  <properties>
   <property name="collision" value="one_way"/>
   <property name="delay" type="float" value="0.25"/>
  </properties>
 </tile>
 <tile id="2" type="breakable">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="3" type="breakable">
  <properties>
   <property name="collision" value="solid"/>
   <property name="coin" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="4" type="crumble">
  <properties>
   <property name="collision" value="solid"/>
   <property name="respawn" type="float" value="0"/>
  </properties>
 </tile>
</tileset>
