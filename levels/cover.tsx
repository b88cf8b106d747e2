<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="cover" tilewidth="16" tileheight="16" tilecount="96" columns="16">
 <image source="../assets/tiles.png" width="256" height="96"/>
</tileset>
