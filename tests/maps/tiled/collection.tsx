<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="collection" tilewidth="32" tileheight="48" tilecount="9" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
  <image width="16" height="16" source="img/solid.png"/>
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="16" height="16"/>
  </objectgroup>
 </tile>
 <tile id="1">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
  <image width="16" height="16" source="img/one_way.png"/>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
  <image width="16" height="16" source="img/slope_up.png"/>
 </tile>
 <tile id="3">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
  <image width="16" height="16" source="img/slope_down.png"/>
 </tile>
 <tile id="4">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
  <image width="16" height="16" source="img/slope_low.png"/>
 </tile>
 <tile id="5">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
  <image width="16" height="16" source="img/slope_high.png"/>
 </tile>
 <tile id="6">
  <image width="16" height="16" source="img/flower.png"/>
  <animation>
   <frame tileid="6" duration="200"/>
   <frame tileid="7" duration="200"/>
  </animation>
 </tile>
 <tile id="7" type="coin">
  <image width="16" height="16" source="img/coin.png"/>
 </tile>
 <tile id="8">
  <image width="32" height="48" source="img/tree.png"/>
 </tile>
</tileset>
