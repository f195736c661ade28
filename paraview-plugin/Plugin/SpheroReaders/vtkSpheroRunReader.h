/**
 * @class   vtkSpheroRunReader
 * @brief   reads a Sphero run (its run.sphero manifest) as one time-aware source
 *
 * The output is a multiblock dataset of four unstructured grids, named
 * "particles" (rounded outlines as polygons — as the run wrote them, or
 * regenerated from the exact skeletons of the run's state frames at
 * ArcResolution chords per full circle — with every cell array the run
 * wrote, and the frame's state file named in the field data, where the
 * filters find the exact outlines), "contacts" (one line per touching pair,
 * with forces, normals and branch vectors), "walls" (outlines, skeletons
 * and grain–wall contact points) and "contact_points" (every vertex
 * contact at its point of application; empty where the run did not write
 * them). The frame shown is
 * the last one at or before the requested time. Field data on every block:
 * TimeValue, frame, and the run's energy-ledger row at that time (step,
 * energies, work, dissipation, first-law residual, wall forces).
 *
 * A second output (port 1) is the run's energy.csv as a table, one row per
 * frame and a column per quantity, for ParaView's line charts over time.
 */
#ifndef vtkSpheroRunReader_h
#define vtkSpheroRunReader_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkMultiBlockDataSetAlgorithm.h"

#include <memory>
#include <string>

class SPHEROREADERS_EXPORT vtkSpheroRunReader : public vtkMultiBlockDataSetAlgorithm {
 public:
  static vtkSpheroRunReader* New();
  vtkTypeMacro(vtkSpheroRunReader, vtkMultiBlockDataSetAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);

  ///@{
  /**
   * Chords per full circle for the rounded arcs of outlines regenerated from
   * the exact skeletons of the run's state frames; 0 (the default) for the
   * outlines as the run wrote them (at its own resolution).
   */
  vtkSetClampMacro(ArcResolution, int, 0, 4096);
  vtkGetMacro(ArcResolution, int);
  ///@}

  /**
   * Whether the file is a Sphero run manifest.
   */
  int CanReadFile(const char* fileName);

 protected:
  vtkSpheroRunReader();
  ~vtkSpheroRunReader() override;

  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroRunReader(const vtkSpheroRunReader&) = delete;
  void operator=(const vtkSpheroRunReader&) = delete;

  struct Run;
  std::unique_ptr<Run> Index;  // what RequestInformation found in the run
  std::string FileName;
  int ArcResolution = 0;
};

#endif
