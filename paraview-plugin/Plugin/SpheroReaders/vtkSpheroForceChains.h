/**
 * @class   vtkSpheroForceChains
 * @brief   force chains of a Sphero run (Peters et al., Phys. Rev. E 72, 041307, 2005)
 *
 * Input: the multiblock of vtkSpheroRunReader. Output: the same blocks with
 * a cell array chain_id (−1 outside chains) on the particles and on the
 * contacts (a contact belongs to a chain when it links two consecutive
 * particles of it), a fourth block "chain_contacts" holding only those
 * contacts (for drawing), and as field data: chains, fraction_in_chains,
 * chain_orientation_deg, and per chain chain_particles, chain_length,
 * chain_mean_stress and chain_orientation — the numbers of `sphero analyze`.
 */
#ifndef vtkSpheroForceChains_h
#define vtkSpheroForceChains_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkMultiBlockDataSetAlgorithm.h"

class SPHEROREADERS_EXPORT vtkSpheroForceChains : public vtkMultiBlockDataSetAlgorithm {
 public:
  static vtkSpheroForceChains* New();
  vtkTypeMacro(vtkSpheroForceChains, vtkMultiBlockDataSetAlgorithm);

  /** Largest angle, in degrees, between a link and each particle's major stress direction (default 45). */
  vtkSetClampMacro(ToleranceAngle, double, 0.001, 90.0);
  vtkGetMacro(ToleranceAngle, double);
  /**
   * Which links a particle keeps: 0, the best-aligned neighbour ahead and
   * behind along its major stress direction (Peters et al., the default);
   * 1, the two best-aligned on either side (--chain-links).
   */
  vtkSetClampMacro(ChainLinks, int, 0, 1);
  vtkGetMacro(ChainLinks, int);

 protected:
  vtkSpheroForceChains() = default;
  ~vtkSpheroForceChains() override = default;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroForceChains(const vtkSpheroForceChains&) = delete;
  void operator=(const vtkSpheroForceChains&) = delete;

  double ToleranceAngle = 45.0;
  int ChainLinks = 0;
};

#endif
