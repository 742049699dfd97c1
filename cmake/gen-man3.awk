# One section-3 man page per exported function, from the header comments.
#
#   awk -f gen-man3.awk -v out=DIR -v version=0.1.0 -v skip="NAME NAME..." \
#       include/omp_ext/*.h
#
# A function is a declaration that starts with OMP_EXT_API (the exported
# ones, as tests/test_exports.sh reads them); its text is the /** ... */
# comment just above it (or above the declarations it follows directly,
# for a pair such as a get/set).  The page OUT/NAME.3 has NAME (the
# comment's first sentence), SYNOPSIS (the declaration), DESCRIPTION (the
# comment without its \param and \return lines), PARAMETERS (\param),
# RETURN VALUE (\return; without one, the comment: it names the value)
# and SEE ALSO (the other functions of its header).
# Names in skip have a hand-written page (man/man3/*.3) and get none here.
# POSIX awk (Debian's mawk): CMake runs it at build time (omp_ext/CMakeLists.txt).

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# Text for groff: backslashes shown, no line read as a request, the
# section sign of the OpenMP references, Doxygen's \p NAME in italics.
function roff(s) {
  gsub(/\\p /, "\001", s)
  gsub(/\\/, "\\e", s)
  gsub(/\001[A-Za-z_0-9]+/, "\\fI&\\fP", s)
  gsub(/\001/, "", s)
  gsub(/§/, "\\[sc]", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.']/)
    s = "\\&" s
  return s
}

# The comment's lines, without "/**", " * " and "*/".
function add_comment_line(line) {
  sub(/^[ \t]*\/\*\*[ \t]?/, "", line)
  sub(/[ \t]*\*\/[ \t]*$/, "", line)
  sub(/^[ \t]*\*( |$)/, "", line)
  comment[++ncomment] = line
}

function first_sentence(    i, s, text) {
  text = ""
  for (i = 1; i <= ncomment; i++) {
    s = trim(comment[i])
    if (s == "" && text != "")
      break
    if (s ~ /^\\(param|return)/)
      break
    text = text (text == "" ? "" : " ") s
  }
  if (match(text, /[.:;]( |$)/))
    text = substr(text, 1, RSTART - 1)
  if (length(text) > 90)
    text = substr(text, 1, 87) "..."
  return text
}

# Flush the page of one function.
function page(name, decl,    f, i, s, where, pname, nl, lines, j) {
  f = out "/" name ".3"
  print ".TH " toupper(name) " 3 \"\" \"omp_ext " version "\" \"omp_ext\"" > f
  print ".\\\" Generated at build time by cmake/gen-man3.awk from " hdr "; do not edit." > f
  print ".SH NAME" > f
  print name " \\- " roff(first_sentence()) > f
  print ".SH SYNOPSIS" > f
  print ".nf" > f
  print ".B #include <omp_ext.h>" > f
  print ".PP" > f
  nl = split(decl, lines, "\n")
  for (j = 1; j <= nl; j++)
    print ".B \"" roff(lines[j]) "\"" > f
  print ".fi" > f
  print ".PP" > f
  print "Link with \\fI\\-lomp_ext\\fP (\\fBpkg\\-config \\-\\-libs omp_ext\\fP)." > f
  print ".SH DESCRIPTION" > f
  where = "d"
  for (i = 1; i <= ncomment; i++) {
    s = comment[i]
    if (s ~ /^[ \t]*\\param/) {
      if (where != "p") { print ".SH PARAMETERS" > f; where = "p" }
      s = trim(s); sub(/^\\param(\[[a-z,]*\])?[ \t]+/, "", s)
      pname = s; sub(/[ \t].*/, "", pname); sub(/^[^ \t]*[ \t]*/, "", s)
      print ".TP" > f
      print ".I " pname > f
      if (s != "") print roff(s) > f
      continue
    }
    if (s ~ /^[ \t]*\\return/) {
      print ".SH RETURN VALUE" > f; where = "r"
      s = trim(s); sub(/^\\returns?[ \t]*/, "", s)
      if (s != "") print roff(s) > f
      continue
    }
    if (trim(s) == "") { print ".PP" > f; continue }
    if (where == "d" && s ~ /^    /) { # an example, indented in the comment
      print ".nf" > f; print "    " roff(trim(s)) > f; print ".fi" > f
      continue
    }
    print roff(trim(s)) > f
  }
  # A comment without \return (a one-liner such as "Number of allowed PUs
  # (>= 1).") is what the function returns.
  if (where != "r" && decl !~ /^void /) {
    print ".SH RETURN VALUE" > f
    for (i = 1; i <= ncomment; i++)
      if (trim(comment[i]) != "" && comment[i] !~ /^[ \t]*\\param/) print roff(trim(comment[i])) > f
  }
  print ".SH SEE ALSO" > f
  for (i = 1; i <= nnames; i++)
    if (names[i] != name)
      print ".BR " names[i] " (3)," > f
  print "the header \\fIomp_ext/" hdr "\\fR." > f
  close(f)
  npages++
}

FNR == 1 {
  flush_file()
  hdr = FILENAME; sub(/.*\//, "", hdr)
  ncomment = 0; incomment = 0; ndecl = 0; nnames = 0; indecl = 0
}

incomment {
  add_comment_line($0)
  if ($0 ~ /\*\//) incomment = 0
  next
}
/^[ \t]*\/\*\*/ {
  ncomment = 0
  add_comment_line($0)
  if ($0 !~ /\*\//) incomment = 1
  if (comment[ncomment] == "" && ncomment == 1) ncomment = 0
  next
}
indecl || /^OMP_EXT_API / {
  if (!indecl) {
    if (!ncomment) { print FILENAME ": " $0 ": no comment above" > "/dev/stderr"; bad = 1 }
    indecl = 1; text = ""
  }
  line = $0; sub(/^OMP_EXT_API /, "", line)
  text = text (text == "" ? "" : "\n") line
  if ($0 ~ /;/) {
    name = text; gsub(/\n/, " ", name); sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    ndecl++; dname[ndecl] = name; ddecl[ndecl] = text; dcomment[ndecl] = ncomment
    for (i = 1; i <= ncomment; i++) dline[ndecl, i] = comment[i]
    names[++nnames] = name
    indecl = 0
  }
  next
}
# A blank line keeps the comment for a declaration that directly follows
# one; anything else ends it.
/^[ \t]*$/ { next }
{ ncomment = 0 }

function flush_file(    k, i) {
  for (k = 1; k <= ndecl; k++) {
    if (index(" " skip " ", " " dname[k] " "))
      continue
    ncomment = dcomment[k]
    for (i = 1; i <= ncomment; i++) comment[i] = dline[k, i]
    page(dname[k], ddecl[k])
  }
  ndecl = 0
}

END {
  flush_file()
  if (bad) exit 1
}
