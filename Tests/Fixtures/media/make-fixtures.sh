#!/bin/sh
# Makes the small media fixtures the attachment tests classify: one real file of every type
# iOS accepts as a notification attachment, and typical files it refuses.
# The generated files are committed; run this again only to change them (needs ffmpeg).
#
#   Tests/Fixtures/media/make-fixtures.sh
#
# A truncated file (the first 20 bytes of a PNG) is kept as a reject-by-decoding case that
# iOS-by-bytes still accepts: iOS checks an attachment's type from its signature and its
# size, not whether it decodes, so the truncated PNG is classified as a PNG.
set -eu
cd "$(dirname "$0")"

ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
# Reproducible output: no encoder version or creation time in the files.
bitexact="-fflags +bitexact -flags +bitexact -map_metadata -1"
tone="-f lavfi -i sine=frequency=440:sample_rate=8000:duration=0.25"
tone44="-f lavfi -i sine=frequency=440:sample_rate=22050:duration=0.5"
picture="-f lavfi -i testsrc=size=32x32:rate=1:duration=1"
clip="-f lavfi -i testsrc=size=32x32:rate=25:duration=0.4"

# Accepted: audio.
ff $tone $bitexact -c:a pcm_s16be tone.aiff
ff $tone $bitexact -c:a pcm_s16le tone.wav
ff $tone44 $bitexact -c:a libmp3lame -b:a 32k tone.mp3
ff $tone44 $bitexact -c:a libmp3lame -b:a 32k -id3v2_version 0 -write_xing 0 tone-bare.mp3
ff $tone44 $bitexact -c:a aac -b:a 32k tone.m4a

# Accepted: images.
ff $picture $bitexact -frames:v 1 picture.jpg
ff $picture $bitexact -frames:v 1 picture.gif
ff $picture $bitexact -frames:v 1 picture.png

# Accepted: video.
ff $clip $bitexact -c:v mpeg1video -b:v 64k -f mpeg clip-mpeg1.mpg
ff $clip $bitexact -c:v mpeg2video -b:v 64k -f vob clip-mpeg2.mpg
ff $clip $bitexact -c:v libx264 -preset ultrafast -pix_fmt yuv420p clip.mp4
ff $clip $bitexact -c:v mpeg4 -b:v 64k clip.avi

# Refused: real media of types iOS does not accept.
ff $picture $bitexact -frames:v 1 -c:v libwebp picture.webp
ff $tone $bitexact -c:a flac tone.flac
ff $tone44 $bitexact -c:a mp2 -b:a 32k tone.mp2
ff $tone44 $bitexact -c:a libvorbis -q:a 0 tone.ogg
ff $clip $bitexact -c:v libvpx -b:v 64k clip.webm
ff $clip $bitexact -c:v mpeg4 -b:v 64k clip.mkv

# Refused: text and nothing.
cat > drawing.svg <<'SVG'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
  <rect x="4" y="4" width="24" height="24" fill="#3a7"/>
</svg>
SVG
cat > error-page.html <<'HTML'
<!DOCTYPE html>
<html>
<head><title>404 Not Found</title></head>
<body><h1>Not Found</h1><p>The requested image was not found on this server.</p></body>
</html>
HTML
: > empty.bin

# The signature and start of the header of a PNG, nothing more.
head -c 20 picture.png > truncated.png
