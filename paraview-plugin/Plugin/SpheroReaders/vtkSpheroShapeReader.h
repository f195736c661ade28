/**
 * @class   vtkSpheroShapeReader
 * @brief   reads a Sphero shape file (.shape) as its rounded outline
 *
 * Produces an unstructured grid with the shape's exact outline
 * (skeleton swept by a disk of the sphero-radius; arcs cut into
 * ArcResolution chords per full circle) as a polygon cell, holes of the
 * outline as closed poly-lines, and the skeleton itself, with the cell
 * arrays shape_id, part (0 outline, 1 hole, 2 skeleton), area,
 * inertia_per_density and bounding_radius. Errors in the file are
 * reported with the file name and line.
 */
#ifndef vtkSpheroShapeReader_h
#define vtkSpheroShapeReader_h

#include "SpheroReadersModule.h"  // for export macro
#include "vtkUnstructuredGridAlgorithm.h"

#include <string>

class SPHEROREADERS_EXPORT vtkSpheroShapeReader : public vtkUnstructuredGridAlgorithm {
 public:
  static vtkSpheroShapeReader* New();
  vtkTypeMacro(vtkSpheroShapeReader, vtkUnstructuredGridAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);

  ///@{
  /**
   * Chords per full circle used to draw the rounded arcs (default 64).
   */
  vtkSetClampMacro(ArcResolution, int, 3, 4096);
  vtkGetMacro(ArcResolution, int);
  ///@}

  /**
   * Whether the file starts like a Sphero shape file.
   */
  int CanReadFile(const char* fileName);

 protected:
  vtkSpheroShapeReader();
  ~vtkSpheroShapeReader() override = default;

  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

 private:
  vtkSpheroShapeReader(const vtkSpheroShapeReader&) = delete;
  void operator=(const vtkSpheroShapeReader&) = delete;

  std::string FileName;
  int ArcResolution = 64;
};

#endif
