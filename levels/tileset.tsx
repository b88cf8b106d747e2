<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tiles" tilewidth="16" tileheight="16" tilecount="96" columns="16">
 <image source="../assets/tiles.png" width="256" height="96"/>
 <tile id="0">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="34">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="35">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="36">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="37">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="38">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="39">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="40">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="41">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="42">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="43">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="72">
  <animation>
   <frame tileid="72" duration="140"/>
   <frame tileid="73" duration="140"/>
   <frame tileid="74" duration="140"/>
   <frame tileid="75" duration="140"/>
  </animation>
 </tile>
 <tile id="76">
  <animation>
   <frame tileid="76" duration="220"/>
   <frame tileid="77" duration="220"/>
   <frame tileid="78" duration="220"/>
   <frame tileid="79" duration="220"/>
  </animation>
 </tile>
 <tile id="85" type="crumble">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="86" type="crumble">
  <properties>
   <property name="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="87" type="breakable">
  <properties>
   <property name="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="88" type="breakable">
  <properties>
   <property name="collision" value="solid"/>
   <property name="coin" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
