"""Battle-screen widgets: each is handed plain view data and renders it."""
