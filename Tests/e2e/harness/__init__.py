"""End-to-end test harness for Virtual Tourist: a fake tile server, a virtual X display,
real mouse/keyboard input, screenshots, and a handle on the running application."""
