#!/usr/bin/env bash
# Fails when docs/VALIDATION.md no longer describes the code: when a file
# that affects results (solver/, analysis/, data/examples/, data/shapes/,
# their Markdown aside) differs from the commit the page's provenance line
# names, committed or not. Without git history it is skipped (exit 77):
# a source tarball, or a shallow clone without that commit, cannot tell.
#   usage: validation_is_current.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: $0 SOURCE_DIR}"
page=docs/VALIDATION.md
result_paths=(solver analysis data/examples data/shapes ':(exclude)*.md')
regenerate="regenerate the page (data/examples/validate -j N, docs/VALIDATION.md) and commit it"
stale() { echo "validation_is_current: $*" >&2; exit 1; }
skipped() { echo "validation_is_current: $*; skipped"; exit 77; }

# The tree must be its own repository, not a folder of another one.
if ! command -v git >/dev/null || [[ $(git rev-parse --show-toplevel 2>/dev/null) != "$(pwd -P)" ]]; then
  skipped "no git history here"
fi
[[ -f $page ]] || stale "$page is missing"

provenance=$(sed -n '/^<!-- table provenance -->$/,/^<!-- \/table -->$/p' "$page" | grep -m1 'from commit' || true)
[[ -n $provenance ]] ||
  stale "$page has no provenance line (\"... from commit ...\" between its provenance markers); $regenerate"
[[ $provenance != *"validate --reduced"* ]] || stale "$page was drawn from the reduced examples; $regenerate"
commit=$(sed -n 's/.*from commit \([0-9a-f]\{7,40\}\).*/\1/p' <<<"$provenance")
[[ -n $commit ]] || stale "$page's provenance names no commit: $provenance"
[[ $provenance != *"$commit with local changes"* ]] ||
  stale "$page was drawn from uncommitted code (commit $commit with local changes); $regenerate"
if ! git rev-parse --quiet --verify "$commit^{commit}" >/dev/null; then
  [[ $(git rev-parse --is-shallow-repository) != true ]] || skipped "commit $commit is not in this shallow clone"
  stale "$page names commit $commit, which is not in this repository; $regenerate"
fi
git merge-base --is-ancestor "$commit" HEAD ||
  stale "$page names commit $commit, which is not an ancestor of HEAD; $regenerate"

# Changed since the page's commit: in history, in the work tree, and new files.
mapfile -t changed < <({ git diff --name-only "$commit" -- "${result_paths[@]}"
                         git ls-files --others --exclude-standard -- "${result_paths[@]}"; } | sort -u)
if ((${#changed[@]} > 0)); then
  echo "validation_is_current: ${#changed[@]} file(s) that affect results changed after commit $commit, which $page describes:" >&2
  printf '  %s\n' "${changed[@]:0:20}" >&2
  ((${#changed[@]} <= 20)) || echo "  ... and $((${#changed[@]} - 20)) more" >&2
  echo "$regenerate" >&2
  exit 1
fi
echo "validation_is_current: $page describes commit $commit, and nothing that affects results changed since"
