"""What every screen shares: dialogs, help, the key bar, inputs, the log, painting,
the command palette, and untrusted text made safe."""
