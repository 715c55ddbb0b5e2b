@echo off
rem Windows zip: registers opentabs as Chrome's and Chromium's native messaging host for the
rem current user (the host manifest and its HKCU registry entry), by running the bundled
rem binary's own command.  Arguments pass through, e.g. --browser chromium.
"%~dp0bin\opentabs.exe" native-host install %*
