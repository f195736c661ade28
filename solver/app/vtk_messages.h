// VTK prints its own errors (a file it cannot open, XML it cannot parse) as
// coloured log lines in its internals' words; the command line says what
// went wrong itself, with the file and what to do.
#pragma once

namespace sphero::app {

// Stops VTK's error and warning output for this process (never called by the
// ParaView plugin, whose users read VTK's messages in ParaView's window).
void silence_vtk_messages();

}  // namespace sphero::app
