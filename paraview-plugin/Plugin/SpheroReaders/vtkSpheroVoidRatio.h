/**
 * @class   vtkSpheroVoidRatio
 * @brief   packing fraction and void ratio of a Sphero run, global and local
 *
 * Input and output: the multiblock of vtkSpheroRunReader. Adds to the
 * particles block the cell arrays local_packing_fraction (the particle's
 * area over its set-Voronoi cell's) and local_void_ratio (1/φ − 1); and as
 * field data the window's packing_fraction, void_ratio and
 * mean_local_packing_fraction — the numbers of `sphero analyze`.
 */
#ifndef vtkSpheroVoidRatio_h
#define vtkSpheroVoidRatio_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkMultiBlockDataSetAlgorithm.h"

class SPHEROREADERS_EXPORT vtkSpheroVoidRatio : public vtkMultiBlockDataSetAlgorithm {
 public:
  static vtkSpheroVoidRatio* New();
  vtkTypeMacro(vtkSpheroVoidRatio, vtkMultiBlockDataSetAlgorithm);

  /** 0: the box around the particles; 1: WindowRectangle; 2: WindowCircle. */
  vtkSetClampMacro(WindowType, int, 0, 2);
  vtkGetMacro(WindowType, int);
  vtkSetVector4Macro(WindowRectangle, double);
  vtkGetVector4Macro(WindowRectangle, double);
  vtkSetVector3Macro(WindowCircle, double);
  vtkGetVector3Macro(WindowCircle, double);

 protected:
  vtkSpheroVoidRatio() = default;
  ~vtkSpheroVoidRatio() override = default;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroVoidRatio(const vtkSpheroVoidRatio&) = delete;
  void operator=(const vtkSpheroVoidRatio&) = delete;

  int WindowType = 0;
  double WindowRectangle[4] = {0, 0, 1, 1};
  double WindowCircle[3] = {0, 0, 1};
};

#endif
