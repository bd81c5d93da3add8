# sweep_goodput.gp: goodput against the checkpoint interval (clustersim
# plot DIR). Data: sweep_goodput.dat, one block per series: interval
# (minutes), goodput (%), time to train (h), interruptions (means over the
# Monte Carlo replicas).
set datafile missing 'NaN'
stats 'sweep_goodput.dat' using 1 nooutput
N = STATS_blocks
set title 'Goodput against checkpoint interval'
set xlabel 'checkpoint interval (minutes)'
set ylabel 'goodput (%)'
set logscale x
set key bottom left
set grid
set terminal pngcairo size 1000,600 noenhanced
set output 'sweep_goodput.png'
plot for [i=0:N-1] 'sweep_goodput.dat' index i using 1:2 with linespoints lw 2 pt 7 title columnheader(2)
set terminal svg size 1000,600 noenhanced background '#ffffff'
set output 'sweep_goodput.svg'
replot
