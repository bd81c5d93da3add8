# tco_util.gp: cost per utilized GPU-hour against utilization, with the
# break-even points marked (clustersim tco -o DIR).
# Data: tco_util.dat (utilization, then one column per option, $/GPU-h);
# tco_util_marks.dat (utilization, $/GPU-h, label) for the crossovers.
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_util.png'
set title 'Cost per utilized GPU-hour'
set xlabel 'utilization of the fleet'
set ylabel 'USD per utilized GPU-hour'
set xrange [5:100]
set logscale y
set format x '%.0f%%'
set key outside right top
set grid
set datafile missing 'NaN'
plot for [c=2:7] 'tco_util.dat' using ($1*100):c with lines lw 2 title word('on-prem colocation cloud-on-demand cloud-reserved-1y cloud-reserved-3y cloud-spot', c-1), \
     'tco_util_marks.dat' using ($1*100):2 with points pt 7 ps 1.5 lc rgb 'black' title 'break-even', \
     '' using ($1*100):2:3 with labels offset 1,1 left font ',8' notitle
