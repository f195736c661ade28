/**
 * @class   vtkSpheroPackingReader
 * @brief   reads a Sphero packing or state file (.vtu) as rounded outlines
 *
 * A packing file of `sphero pack`, or a run's state_NNNNN.vtu, holds each
 * body's exact skeleton and sphero-radius; opened as a plain .vtu it shows
 * the bare skeletons. This reader gives each body its rounded outline
 * (skeleton swept by a disk of the sphero-radius; arcs cut into
 * ArcResolution chords per full circle) as a polygon cell, with the cell
 * arrays id (body number), part (0 grain, 1 wall) and area (exact, of
 * grains; 0 for walls) — the outlines `sphero figure PACKING.vtu` draws.
 */
#ifndef vtkSpheroPackingReader_h
#define vtkSpheroPackingReader_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkUnstructuredGridAlgorithm.h"

#include <string>

class SPHEROREADERS_EXPORT vtkSpheroPackingReader : public vtkUnstructuredGridAlgorithm {
 public:
  static vtkSpheroPackingReader* New();
  vtkTypeMacro(vtkSpheroPackingReader, vtkUnstructuredGridAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);

  ///@{
  /**
   * Chords per full circle used to draw the rounded arcs (default 24).
   */
  vtkSetClampMacro(ArcResolution, int, 3, 4096);
  vtkGetMacro(ArcResolution, int);
  ///@}

  /**
   * Whether the file is a .vtu whose header names the arrays of a Sphero
   * state file (sphero_radius, centre_of_mass).
   */
  int CanReadFile(const char* fileName);

 protected:
  vtkSpheroPackingReader();
  ~vtkSpheroPackingReader() override = default;

  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroPackingReader(const vtkSpheroPackingReader&) = delete;
  void operator=(const vtkSpheroPackingReader&) = delete;

  std::string FileName;
  int ArcResolution = 24;
};

#endif
