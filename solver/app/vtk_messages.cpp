#include "app/vtk_messages.h"

#include <vtkObject.h>

namespace sphero::app {

void silence_vtk_messages() { vtkObject::GlobalWarningDisplayOff(); }

}  // namespace sphero::app
