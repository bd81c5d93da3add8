# tco_util.gp: cost per utilized GPU-hour against utilization, with the
# break-even points marked (clustersim tco -o DIR). Owned options solid,
# cloud options dashed; the scenario's utilization as a dotted line.
# Data: tco_util.dat (utilization, then one column per available option,
# named in tco_meta.gp); tco_util_marks.dat (utilization, $/GPU-h, label
# height, label) for the crossovers.
load 'tco_meta.gp'
# series colours: the first 7 of the shared palette (Kelly 1965; report/palette.c,
# checked by tests/check_plot.c)
set linetype 1 lc rgb '#222222' pt 7
set linetype 2 lc rgb '#875692' pt 5
set linetype 3 lc rgb '#f38400' pt 9
set linetype 4 lc rgb '#be0032' pt 13
set linetype 5 lc rgb '#848482' pt 11
set linetype 6 lc rgb '#008856' pt 6
set linetype 7 lc rgb '#e68fac' pt 4
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_util.png'
set title sprintf('Cost per utilized GPU-hour: %d GPUs over %g years', scenario_gpus, scenario_years)
set xlabel 'utilization of the fleet (%)'
set ylabel 'USD per utilized GPU-hour'
set xrange [util_xmin:100]
set logscale y
set format x '%.0f%%'
set key outside right top
set grid
set datafile missing 'NaN'
set arrow from 100*utilization, graph 0 to 100*utilization, graph 1 nohead dt 3 lc rgb 'gray30'
set label sprintf('scenario %.0f%%', 100*utilization) at 100*utilization, graph 0.03 left offset 0.5,0 font ',9' tc rgb 'gray30'
# No crossover in (0, 100%]: plot no marks (an empty file would warn).
marks = util_nmarks > 0 ? ", 'tco_util_marks.dat' using ($1*100):2 with points pt 7 ps 1.3 lc rgb 'black' title 'break-even', '' using ($1*100):3:4 with labels left offset 0.8,0 font ',9' notitle" : ""
plot for [c=2:util_nowned+1] 'tco_util.dat' using ($1*100):c with lines lw (c == 2 ? 5 : 2) lc c-1 dt 1 title word(util_names, c-1), \
     for [c=util_nowned+2:util_ncurves+1] 'tco_util.dat' using ($1*100):c with lines lw 2 lc c-1 dt 2 title word(util_names, c-1) \
     @marks
