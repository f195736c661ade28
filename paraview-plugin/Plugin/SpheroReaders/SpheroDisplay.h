// A ParaView without a display to render on: Debian's pvpython and pvbatch
// draw through X even with --force-offscreen-rendering, so started with no
// X display they crash with a raw stack trace at their first render,
// whatever is shown. The Sphero readers say so, and what to do, when they
// are made there. Not wrapped.
#pragma once

namespace sphero::plugin {

// Once per process, where it has no display: a warning naming the way out
// (a virtual display).
void warn_without_display();

}  // namespace sphero::plugin
