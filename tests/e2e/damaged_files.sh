#!/usr/bin/env bash
# damaged_files.sh SPHERO RUN_DIR WORKDIR: a run's files damaged one way at a
# time — connectivity past the points, an empty contact line, an array of the
# wrong width, absurd counts in a header, a short energy.csv row, a collection
# without frames or with a bad timestep — are refused by analyze, figure, pack
# and run with a message naming the file and the damage: never a signal, never
# a C++ exception's name, never exit 0.
set -euo pipefail
sphero=$1; run=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "$0")/expect_lib.sh"

# An ASCII .vtu of one cell: POINTS (x y z ...), CONNECTIVITY, OFFSETS, TYPES, CELLDATA arrays.
ascii_vtu() {
  local points=$1 npoints=$2 connectivity=$3 offsets=$4 types=$5 ncells=$6 celldata=$7
  cat <<XML
<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
  <UnstructuredGrid>
    <Piece NumberOfPoints="$npoints" NumberOfCells="$ncells">
      <Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">$points</DataArray></Points>
      <Cells>
        <DataArray type="Int64" Name="connectivity" format="ascii">$connectivity</DataArray>
        <DataArray type="Int64" Name="offsets" format="ascii">$offsets</DataArray>
        <DataArray type="UInt8" Name="types" format="ascii">$types</DataArray>
      </Cells>
      <CellData>$celldata</CellData>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
XML
}

fresh_copy() { rm -rf "$work/$1"; cp -r "$run" "$work/$1"; echo "$work/$1"; }

# A state frame whose polygon refers to a point past the three there are.
dir=$(fresh_copy past-points)
ascii_vtu "0 0 0 1 0 0 0 1 0" 3 "0 1 7" 3 7 1 "" > "$dir/state_00000.vtu"
expect particles-past-points "cell 0 refers to point 7, but there are 3 points" "$sphero" analyze "$dir" --frames 0:0
expect figure-past-points "cell 0 refers to point 7" "$sphero" figure "$dir" --frame 0 -o "$work/f.png"

# A state file (a packing) whose cell refers past its points.
ascii_vtu "0 0 0" 1 "5" 1 1 1 "" > "$work/state_past_points.vtu"
expect state-past-points "state_past_points.vtu: cell 0 refers to point 5" "$sphero" analyze "$work/state_past_points.vtu"
expect sort-past-points "cell 0 refers to point 5" "$sphero" pack sort --packing "$work/state_past_points.vtu" -o "$work/s.vtu"
expect figure-state-past-points "cell 0 refers to point 5" "$sphero" figure "$work/state_past_points.vtu" -o "$work/s.png"
printf 'duration = 1\nlaw = 0 0 linear kn=1e4\npacking = state_past_points.vtu\n' > "$work/packing.ini"
expect run-packing-past-points "cell 0 refers to point 5" "$sphero" run "$work/packing.ini" --check

# A contacts frame with an empty cell.
dir=$(fresh_copy empty-contact)
ascii_vtu "0 0 0" 1 "" 0 3 1 "" > "$dir/contacts_00000.vtu"
expect empty-contact-line "contact line 0 has 0 points, expected 2 to 2" "$sphero" analyze "$dir" --frames 0:0

# A light state frame whose stress has three components instead of four.
dir=$(fresh_copy narrow-stress)
cat > "$dir/state_00000.vtu" <<'XML'
<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
  <UnstructuredGrid>
    <FieldData>
      <DataArray type="Int32" Name="sphero_state_format" NumberOfTuples="1" format="ascii">2</DataArray>
      <Array type="String" Name="shape_table" NumberOfTuples="1" format="ascii">115 104 97 112 101 115 46 118 116 117 0</Array>
    </FieldData>
    <Piece NumberOfPoints="1" NumberOfCells="1">
      <Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">0.3 0.3 0</DataArray></Points>
      <Cells>
        <DataArray type="Int64" Name="connectivity" format="ascii">0</DataArray>
        <DataArray type="Int64" Name="offsets" format="ascii">1</DataArray>
        <DataArray type="UInt8" Name="types" format="ascii">1</DataArray>
      </Cells>
      <CellData>
        <DataArray type="Int32" Name="id" format="ascii">0</DataArray>
        <DataArray type="Int32" Name="shape" format="ascii">0</DataArray>
        <DataArray type="Int32" Name="wall" format="ascii">0</DataArray>
        <DataArray type="Float64" Name="angle" format="ascii">0</DataArray>
        <DataArray type="Float64" Name="density" format="ascii">1</DataArray>
        <DataArray type="Float64" Name="stress_compression_positive" NumberOfComponents="3" format="ascii">1 2 3</DataArray>
      </CellData>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
XML
expect narrow-stress "cell array 'stress_compression_positive' has 3 components, expected 4" "$sphero" analyze "$dir" --frames 0:0
# One that names a shape row the table lacks.
sed -i 's|Name="shape" format="ascii">0<|Name="shape" format="ascii">999<|; s|NumberOfComponents="3" format="ascii">1 2 3<|NumberOfComponents="4" format="ascii">1 2 3 4<|' "$dir/state_00000.vtu"
expect missing-shape-row "body 0 names shape row 999, which the run's shape table" "$sphero" analyze "$dir" --frames 0:0
# A damaged shape table.
dir=$(fresh_copy damaged-shapes)
head -c 400 "$run/shapes.vtu" > "$dir/shapes.vtu"
expect damaged-shape-table "shapes.vtu" "$sphero" analyze "$dir" --frames 0:0
rm "$dir/shapes.vtu"
expect missing-shape-table "shapes.vtu: missing; the run's state frames name their shapes in it" "$sphero" analyze "$dir" --frames 0:0

# An array with fewer values than cells.
dir=$(fresh_copy short-array)
ascii_vtu "0 0 0 1 0 0 0 1 0" 3 "0 1 2 0 1 2" "3 6" "7 7" 2 \
  '<DataArray type="Float64" Name="area" format="ascii">0.5</DataArray>' > "$dir/state_00000.vtu"
expect short-array "the CellData array 'area' holds 1 values, not the 2 its cells need" "$sphero" analyze "$dir" --frames 0:0

ascii_vtu "0 0 0 1 0" 3 "0 1 2" 3 7 1 "" > "$dir/state_00000.vtu"
expect short-points "the Points array '' holds 5 values, not the 9 its points need" "$sphero" analyze "$dir" --frames 0:0
ascii_vtu "0 0 0 1 0 0 0 1 0" 3 "0 1" 3 7 1 "" > "$dir/state_00000.vtu"
expect short-connectivity "the Cells array 'connectivity' holds 2 values, not the 3" "$sphero" analyze "$dir" --frames 0:0

# Absurd counts in the header: refused before anything is allocated.
dir=$(fresh_copy huge-count)
ascii_vtu "0 0 0" 1 "0" 1 1 2000000000 "" > "$dir/state_00000.vtu"
expect huge-cell-count "announces 2000000000 cells" "$sphero" analyze "$dir" --frames 0:0
ascii_vtu "0 0 0" 1e300 "0" 1 1 1 "" > "$work/huge_points.vtu"
expect huge-point-count "announces 1e300 points" "$sphero" analyze "$work/huge_points.vtu"

# A non-finite point.
dir=$(fresh_copy nan-point)
ascii_vtu "0 0 0 nan 0 0 0 1 0" 3 "0 1 2" 3 7 1 "" > "$dir/state_00000.vtu"
expect nan-point "point 1 is not finite" "$sphero" analyze "$dir" --frames 0:0

# energy.csv: a short row, a word where a number belongs.
dir=$(fresh_copy short-row)
sed -i '0,/^[0-9]/{s/^\([0-9][^,]*,[^,]*\),.*/\1/}' "$dir/energy.csv"
expect short-energy-row "energy.csv:3: 2 values for" "$sphero" analyze "$dir"
dir=$(fresh_copy word-in-energy)
sed -i '0,/^[0-9]/{s/^[0-9][^,]*,/zero,/}' "$dir/energy.csv"
expect word-in-energy "energy.csv:3: 'zero' is not a finite number" "$sphero" analyze "$dir"

# Collections: no frames, a timestep that is not a number.
dir=$(fresh_copy no-frames)
grep -v '<DataSet' "$run/state.pvd" > "$dir/state.pvd"
expect no-frames "state.pvd: lists no frames" "$sphero" analyze "$dir"
expect figure-no-frames "state.pvd: lists no frames" "$sphero" figure "$dir" -o "$work/n.png"
dir=$(fresh_copy bad-timestep)
sed -i '0,/timestep="[^"]*"/{s/timestep="[^"]*"/timestep="soon"/}' "$dir/state.pvd"
expect bad-timestep "without a finite timestep" "$sphero" analyze "$dir"

finish && echo "damaged files refused"
