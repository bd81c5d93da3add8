# sweep_scaling.gp: scaling efficiency against GPUs (clustersim plot DIR).
# Data: sweep_scaling.dat, one block per series (the other axes' values):
# gpus, efficiency in % of the series' smallest point (tokens/s per GPU),
# tokens/s per GPU, MFU; the block's header names the series.
set datafile missing 'NaN'
stats 'sweep_scaling.dat' using 1 nooutput
N = STATS_blocks
set title 'Scaling efficiency: tokens/s per GPU relative to the smallest point'
set xlabel 'GPUs'
set ylabel 'scaling efficiency (%)'
set logscale x 2
set yrange [0:110]
set key bottom left
set grid
set terminal pngcairo size 1000,600 noenhanced
set output 'sweep_scaling.png'
plot for [i=0:N-1] 'sweep_scaling.dat' index i using 1:2 with linespoints lw 2 pt 7 title columnheader(2)
set terminal svg size 1000,600 noenhanced background '#ffffff'
set output 'sweep_scaling.svg'
replot
