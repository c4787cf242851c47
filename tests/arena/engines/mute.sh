#!/bin/sh
# Not a UCI engine: exits without answering 'uci'.
read -r cmd
exit 0
