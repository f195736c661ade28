/**
 * @class   vtkSpheroCoarseGrainedFields
 * @brief   continuum fields of a Sphero run's frame on a grid (coarse-graining)
 *
 * Input: the multiblock of vtkSpheroRunReader (its frame's state file gives
 * the masses). Output: a multiblock of one block, "fields", image data on a
 * regular grid with the point arrays density, number_density, momentum,
 * velocity, kinetic_stress, contact_stress, stress (xx, xy, yx, yy;
 * compression positive), pressure, deviator_stress, major_stress_direction,
 * coordination_density, coordination, fabric and granular_temperature. The
 * numbers are those of `sphero coarse-grain`: the same library computes
 * them (docs/ANALYSIS.md).
 */
#ifndef vtkSpheroCoarseGrainedFields_h
#define vtkSpheroCoarseGrainedFields_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkMultiBlockDataSetAlgorithm.h"

class SPHEROREADERS_EXPORT vtkSpheroCoarseGrainedFields : public vtkMultiBlockDataSetAlgorithm {
 public:
  static vtkSpheroCoarseGrainedFields* New();
  vtkTypeMacro(vtkSpheroCoarseGrainedFields, vtkMultiBlockDataSetAlgorithm);

  /** The kernel's width W in m (its standard deviation; --width). */
  vtkSetMacro(Width, double);
  vtkGetMacro(Width, double);
  /** The grid's spacing in m, at most W; 0: W/2 (--cell). */
  vtkSetMacro(Cell, double);
  vtkGetMacro(Cell, double);
  /** 0: Gaussian; 1: Lucy (--kernel). */
  vtkSetClampMacro(Kernel, int, 0, 1);
  vtkGetMacro(Kernel, int);
  /** The Gaussian's cutoff in widths (--cutoff). */
  vtkSetMacro(Cutoff, double);
  vtkGetMacro(Cutoff, double);
  /** 0: the box around the particles, grown by the kernel's reach; 1: WindowRectangle (--window). */
  vtkSetClampMacro(WindowType, int, 0, 1);
  vtkGetMacro(WindowType, int);
  vtkSetVector4Macro(WindowRectangle, double);
  vtkGetVector4Macro(WindowRectangle, double);

 protected:
  vtkSpheroCoarseGrainedFields() = default;
  ~vtkSpheroCoarseGrainedFields() override = default;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroCoarseGrainedFields(const vtkSpheroCoarseGrainedFields&) = delete;
  void operator=(const vtkSpheroCoarseGrainedFields&) = delete;

  double Width = 1.0;
  double Cell = 0.0;
  int Kernel = 0;
  double Cutoff = 3.0;
  int WindowType = 0;
  double WindowRectangle[4] = {0, 0, 1, 1};
};

#endif
