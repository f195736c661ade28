#include "io/contact_points_vtu.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkIdList.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>

#include <stdexcept>

#include "io/drawing_shift.h"
#include "io/grid_check.h"
#include "io/vtu_file.h"

namespace sphero {

std::vector<VertexContactRecord> vertex_contact_records(const World& w, const std::vector<Contact>& contacts,
                                                        const FramePiece& piece) {
  std::vector<VertexContactRecord> records;
  for (const Contact& c : contacts) {
    if (!c.active || !piece.writes_pair(w, c.vertex_body, c.edge_body)) continue;
    const auto v = static_cast<std::size_t>(c.vertex_body), e = static_cast<std::size_t>(c.edge_body);
    // Where the vertex body is drawn; the offset takes the point to the edge
    // body's own frame (its centre of mass as the particles file gives it).
    const Vec2 shift = drawing_shift(w, v);
    VertexContactRecord r;
    r.vertex_body = w.id[v];
    r.edge_body = w.id[e];
    r.vertex = c.vertex - w.vertex_begin[v];
    r.edge = c.feature - w.vertex_begin[e];
    r.vertex_to_vertex = c.kind == ContactKind::vertex_vertex;
    r.sliding = c.sliding;
    r.point = c.point + shift;
    r.normal = c.normal;
    r.force = c.force;
    r.normal_force = c.normal_force;
    r.overlap = c.overlap;
    r.edge_offset = c.edge_offset + shift;
    records.push_back(r);
  }
  return records;
}

vtkSmartPointer<vtkUnstructuredGrid> contact_points_grid(const std::vector<VertexContactRecord>& records) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // points of application for analysis, not rounded to float
  auto vertex_body = named_ints("vertex_body", 1), edge_body = named_ints("edge_body", 1);
  auto vertex = named_ints("vertex", 1), edge = named_ints("edge", 1), kind = named_ints("vertex_to_vertex", 1);
  auto sliding = named_ints("sliding", 1);
  auto normal = named_doubles("normal", 3), force = named_doubles("force", 3);
  auto normal_force = named_doubles("normal_force", 1), tangential = named_doubles("tangential_force_vector", 3);
  auto overlap = named_doubles("overlap", 1), offset = named_doubles("edge_offset", 3);
  for (const VertexContactRecord& r : records) {
    const vtkIdType id = points->InsertNextPoint(r.point.x, r.point.y, 0.0);
    grid->InsertNextCell(VTK_VERTEX, 1, &id);
    vertex_body->InsertNextValue(r.vertex_body);
    edge_body->InsertNextValue(r.edge_body);
    vertex->InsertNextValue(r.vertex);
    edge->InsertNextValue(r.edge);
    kind->InsertNextValue(r.vertex_to_vertex);
    sliding->InsertNextValue(r.sliding);
    normal->InsertNextTuple3(r.normal.x, r.normal.y, 0.0);
    force->InsertNextTuple3(r.force.x, r.force.y, 0.0);
    normal_force->InsertNextValue(r.normal_force);
    // The force on the vertex body less its normal part −f_n n.
    const Vec2 t = r.force + r.normal_force * r.normal;
    tangential->InsertNextTuple3(t.x, t.y, 0.0);
    overlap->InsertNextValue(r.overlap);
    offset->InsertNextTuple3(r.edge_offset.x, r.edge_offset.y, 0.0);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a :
       std::initializer_list<vtkAbstractArray*>{vertex_body, edge_body, vertex, edge, kind, sliding, normal, force,
                                                normal_force, tangential, overlap, offset})
    grid->GetCellData()->AddArray(a);
  return grid;
}

std::vector<VertexContactRecord> vertex_contacts_from_grid(vtkUnstructuredGrid* grid) {
  vtkCellData* data = grid->GetCellData();
  const vtkIdType cells = grid->GetNumberOfCells();
  const auto need = [&](const char* name, int components) {
    vtkDataArray* a = data->GetArray(name);
    if (a == nullptr || a->GetNumberOfComponents() != components || a->GetNumberOfTuples() != cells)
      throw std::runtime_error(fmt::format(
          "the contact points lack a cell array '{}' of {} component(s) and {} values", name, components, cells));
    return a;
  };
  vtkDataArray *vertex_body = need("vertex_body", 1), *edge_body = need("edge_body", 1), *vertex = need("vertex", 1),
               *edge = need("edge", 1), *kind = need("vertex_to_vertex", 1), *sliding = need("sliding", 1),
               *normal = need("normal", 3), *force = need("force", 3), *normal_force = need("normal_force", 1),
               *overlap = need("overlap", 1), *offset = need("edge_offset", 3);
  std::vector<VertexContactRecord> records;
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < cells; ++c) {
    grid->GetCellPoints(c, ids);
    if (ids->GetNumberOfIds() != 1) throw std::runtime_error(fmt::format("contact point {} is not a single point", c));
    double p[3];
    grid->GetPoint(ids->GetId(0), p);
    VertexContactRecord r;
    r.vertex_body = cell_int(vertex_body, c);
    r.edge_body = cell_int(edge_body, c);
    r.vertex = cell_int(vertex, c);
    r.edge = cell_int(edge, c);
    r.vertex_to_vertex = kind->GetTuple1(c) != 0.0;
    r.sliding = sliding->GetTuple1(c) != 0.0;
    r.point = {p[0], p[1]};
    r.normal = {normal->GetComponent(c, 0), normal->GetComponent(c, 1)};
    r.force = {force->GetComponent(c, 0), force->GetComponent(c, 1)};
    r.normal_force = normal_force->GetTuple1(c);
    r.overlap = overlap->GetTuple1(c);
    r.edge_offset = {offset->GetComponent(c, 0), offset->GetComponent(c, 1)};
    records.push_back(r);
  }
  return records;
}

}  // namespace sphero
