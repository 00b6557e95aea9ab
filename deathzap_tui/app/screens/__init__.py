"""The app's screens: start, set-up, battle, wizard, quick resolve, help, game over."""
