"""A stand-in for the freedesktop appearance portal on the test's session bus: it owns
org.freedesktop.portal.Desktop and answers org.freedesktop.portal.Settings' ReadOne and Read for
org.freedesktop.appearance color-scheme (1 dark, 2 light, 0 no preference), and emits SettingChanged
when the test changes the value. It runs as a process of its own (python3-gi's Gio and a GLib main
loop), driven over its standard input: a line with a number sets the value."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

BUS_NAME = "org.freedesktop.portal.Desktop"
OBJECT_PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.Settings"
NAMESPACE, KEY = "org.freedesktop.appearance", "color-scheme"
DARK, LIGHT, NO_PREFERENCE = 1, 2, 0


class AppearancePortal:
    """The portal as a process; `calls` lists the methods apps called, in order (e.g. "ReadOne")."""

    def __init__(self, color_scheme: int, log_path: Path, with_read_one: bool = True) -> None:
        self.color_scheme = color_scheme
        self.log_path = log_path
        self.with_read_one = with_read_one
        self.calls: list[str] = []
        self._acknowledged: list[int] = []
        self._lines = threading.Condition()
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 15) -> "AppearancePortal":
        arguments = [sys.executable, str(Path(__file__).resolve()), str(self.color_scheme)]
        if not self.with_read_one:
            arguments.append("--without-read-one")
        self.process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(self.log_path, "ab"), text=True, bufsize=1, env=os.environ.copy())
        threading.Thread(target=self._read_output, daemon=True).start()
        self._wait_for(lambda: "owned" in self.calls, timeout, f"the portal owns {BUS_NAME}")
        self.calls.remove("owned")
        return self

    def set(self, color_scheme: int, timeout: float = 10) -> None:
        """Changes the value and waits until SettingChanged has gone out."""
        self.color_scheme = color_scheme
        self.process.stdin.write(f"{color_scheme}\n")
        self.process.stdin.flush()
        self._wait_for(lambda: color_scheme in self._acknowledged, timeout, f"the portal announced {color_scheme}")
        self._acknowledged.clear()

    def stop(self) -> None:
        from .processes import stop_process
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def _read_output(self) -> None:
        for line in self.process.stdout:
            word, _, value = line.strip().partition(" ")
            with self._lines:
                if word == "emitted":
                    self._acknowledged.append(int(value))
                else:
                    self.calls.append(word)
                self._lines.notify_all()

    def _wait_for(self, condition, timeout: float, what: str) -> None:
        with self._lines:
            if not self._lines.wait_for(lambda: condition() or self.process.poll() is not None, timeout) \
                    or not condition():
                log = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
                raise AssertionError(f"timed out waiting until {what}; portal log:\n{log}")


# MARK: - The service (run as a script)

def _introspection(with_read_one: bool) -> str:
    read_one = ("<method name='ReadOne'><arg type='s' name='namespace' direction='in'/>"
                "<arg type='s' name='key' direction='in'/><arg type='v' name='value' direction='out'/></method>")
    return f"""<node><interface name='{INTERFACE}'>
      <method name='ReadAll'><arg type='as' name='namespaces' direction='in'/>
        <arg type='a{{sa{{sv}}}}' name='value' direction='out'/></method>
      <method name='Read'><arg type='s' name='namespace' direction='in'/><arg type='s' name='key' direction='in'/>
        <arg type='v' name='value' direction='out'/></method>
      {read_one if with_read_one else ""}
      <signal name='SettingChanged'><arg type='s' name='namespace'/><arg type='s' name='key'/>
        <arg type='v' name='value'/></signal>
      <property name='version' type='u' access='read'/>
    </interface></node>"""


def _serve(color_scheme: int, with_read_one: bool) -> None:
    from gi.repository import Gio, GLib

    state = {"value": color_scheme, "connection": None}
    node = Gio.DBusNodeInfo.new_for_xml(_introspection(with_read_one))

    def say(line: str) -> None:
        print(line, flush=True)

    def method_call(connection, sender, path, interface, method, parameters, invocation):
        say(method)
        if method == "ReadAll":
            namespaces = parameters.unpack()[0]
            wanted = not namespaces or any(NAMESPACE.startswith(n.rstrip("*")) for n in namespaces)
            settings = {NAMESPACE: {KEY: GLib.Variant("u", state["value"])}} if wanted else {}
            invocation.return_value(GLib.Variant("(a{sa{sv}})", (settings,)))
            return
        namespace, key = parameters.unpack()
        if (namespace, key) != (NAMESPACE, KEY):
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "Requested setting not found")
        elif method == "ReadOne":
            invocation.return_value(GLib.Variant("(v)", (GLib.Variant("u", state["value"]),)))
        else:  # Read, as portals before version 2 answer it: the value wrapped in one more variant
            invocation.return_value(GLib.Variant("(v)", (GLib.Variant("v", GLib.Variant("u", state["value"])),)))

    def get_property(connection, sender, path, interface, name):
        return GLib.Variant("u", 2 if with_read_one else 1)

    def bus_acquired(connection, name):
        state["connection"] = connection
        connection.register_object(OBJECT_PATH, node.interfaces[0], method_call, get_property, None)

    def name_acquired(connection, name):
        say("owned")

    def name_lost(connection, name):
        print(f"lost or never got {name}", file=sys.stderr, flush=True)
        loop.quit()

    def read_commands(channel, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        state["value"] = int(line)
        state["connection"].emit_signal(None, OBJECT_PATH, INTERFACE, "SettingChanged",
                                        GLib.Variant("(ssv)", (NAMESPACE, KEY, GLib.Variant("u", state["value"]))))
        state["connection"].flush_sync(None)
        say(f"emitted {state['value']}")
        return True

    loop = GLib.MainLoop()
    Gio.bus_own_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameOwnerFlags.NONE, bus_acquired, name_acquired, name_lost)
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP, read_commands)
    loop.run()


if __name__ == "__main__":
    _serve(int(sys.argv[1]), "--without-read-one" not in sys.argv[2:])
