<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="tiles" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="test_tiles.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="16" height="16"/>
  </objectgroup>
 </tile>
 <tile id="1">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="6">
  <animation>
   <frame tileid="6" duration="200"/>
   <frame tileid="7" duration="200"/>
  </animation>
 </tile>
 <tile id="7" type="coin"/>
</tileset>
