/**
 * @class   vtkSpheroGranularStress
 * @brief   per-particle and sample-average stress of a Sphero run (Love–Weber)
 *
 * Input and output: the multiblock of vtkSpheroRunReader. Adds to the
 * particles block the cell arrays stress (xx, xy, yx, yy; compression
 * positive; without the walls' share when ExcludeWalls is on), pressure,
 * deviator_stress, principal_stresses (major first) and
 * major_stress_direction; and as field data the average stress of the
 * window (sigma_xx, sigma_yy, sigma_xy, p, q) and the stress on every wall
 * face (wall_face: wall id and face index; wall_face_sigma_n, wall_face_tau,
 * wall_face_length). The numbers are those of `sphero analyze`: the same
 * analysis library computes them.
 */
#ifndef vtkSpheroGranularStress_h
#define vtkSpheroGranularStress_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkMultiBlockDataSetAlgorithm.h"

class SPHEROREADERS_EXPORT vtkSpheroGranularStress : public vtkMultiBlockDataSetAlgorithm {
 public:
  static vtkSpheroGranularStress* New();
  vtkTypeMacro(vtkSpheroGranularStress, vtkMultiBlockDataSetAlgorithm);

  /** Leave contacts with walls out of the particles' stresses. */
  vtkSetMacro(ExcludeWalls, int);
  vtkGetMacro(ExcludeWalls, int);
  /** 0: the box around the particles; 1: WindowRectangle; 2: WindowCircle. */
  vtkSetClampMacro(WindowType, int, 0, 2);
  vtkGetMacro(WindowType, int);
  vtkSetVector4Macro(WindowRectangle, double);
  vtkGetVector4Macro(WindowRectangle, double);
  vtkSetVector3Macro(WindowCircle, double);
  vtkGetVector3Macro(WindowCircle, double);

 protected:
  vtkSpheroGranularStress() = default;
  ~vtkSpheroGranularStress() override = default;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroGranularStress(const vtkSpheroGranularStress&) = delete;
  void operator=(const vtkSpheroGranularStress&) = delete;

  int ExcludeWalls = 0;
  int WindowType = 0;
  double WindowRectangle[4] = {0, 0, 1, 1};
  double WindowCircle[3] = {0, 0, 1};
};

#endif
