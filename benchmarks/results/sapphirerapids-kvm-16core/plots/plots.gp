# htbench plots: run `gnuplot plots.gp` in this directory
set grid
set key top left
set xlabel "threads"
set pointsize 0.8
set format x "%.0f"
set offsets 0.2, 0.2, 0, 0
set xtics 1
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "wordcount.png"
set multiplot layout 2,2 title "wordcount"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "wordcount.svg"
set multiplot layout 2,2 title "wordcount"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "wordcount-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "sieve.png"
set multiplot layout 2,2 title "sieve"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "sieve.svg"
set multiplot layout 2,2 title "sieve"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "sieve-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "fadd.png"
set multiplot layout 2,2 title "fadd"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "fadd.svg"
set multiplot layout 2,2 title "fadd"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fadd-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "fmul.png"
set multiplot layout 2,2 title "fmul"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "fmul.svg"
set multiplot layout 2,2 title "fmul"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fmul-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "fdiv.png"
set multiplot layout 2,2 title "fdiv"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "fdiv.svg"
set multiplot layout 2,2 title "fdiv"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "fdiv-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "triad.png"
set multiplot layout 2,2 title "triad"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
set terminal svg size 1200,900 dynamic
set output "triad.svg"
set multiplot layout 2,2 title "triad"
set title "time"
set ylabel "median time per region (s)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($2*1) with linespoints title p
set title "speed-up"
set ylabel "T(1) / T(N)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($3*1) with linespoints title p
set title "power (modelled)"
set ylabel "power (W)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($4*1) with linespoints title p
set title "SPN"
set ylabel "1000 S / (P cores)"
plot for [p in "os speedup spn spread energy"] "triad-".p.".dat" using 1:($5*1) with linespoints title p
unset multiplot
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "parallel.png"
set title "EPCC parallel overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "parallel-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
set terminal svg size 1200,900 dynamic
set output "parallel.svg"
set title "EPCC parallel overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "parallel-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "for.png"
set title "EPCC for overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "for-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
set terminal svg size 1200,900 dynamic
set output "for.svg"
set title "EPCC for overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "for-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "barrier.png"
set title "EPCC barrier overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "barrier-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
set terminal svg size 1200,900 dynamic
set output "barrier.svg"
set title "EPCC barrier overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "barrier-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 1200,900 } else { set terminal png size 1200,900 }
set output "reduction.png"
set title "EPCC reduction overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "reduction-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
set terminal svg size 1200,900 dynamic
set output "reduction.svg"
set title "EPCC reduction overhead (test - reference)"
set ylabel "overhead per repetition (us)"
plot for [p in "os speedup spn spread energy"] "reduction-".p.".dat" using 1:($2*1e+06) with linespoints title p
unset output
