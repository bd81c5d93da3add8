# replay_jct_cdf.gp: CDF of job completion time (queueing + run) from
# `clustersim replay -o DIR`. Data: replay_jct.dat (jct_h, cdf).
set terminal pngcairo size 800,500 noenhanced
set output 'replay_jct_cdf.png'
set title 'Trace replay: job completion time CDF'
set xlabel 'job completion time (hours, log scale)'
set ylabel 'fraction of jobs'
set logscale x
set yrange [0:1]
set grid
set key bottom right
plot 'replay_jct.dat' using 1:2 with steps lw 2 title 'JCT'
