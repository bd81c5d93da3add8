# replay_util.gp: GPU utilization over time from `clustersim replay -o DIR`.
# Data: replay_util.dat (time_h, allocated and busy fractions, then the
# allocated fraction of each partition). Run in DIR: gnuplot replay_util.gp
set terminal pngcairo size 1000,500 noenhanced
set output 'replay_util.png'
set title 'Trace replay: GPU utilization over time'
set xlabel 'time since first submission (hours)'
set ylabel 'fraction of the cluster''s GPUs'
set yrange [0:1.05]
set key outside right top
set grid
set key autotitle columnhead
plot 'replay_util.dat' using 1:2 with lines lw 2 title 'allocated', \
     '' using 1:3 with lines lw 1 dt 2 title 'busy', \
     for [i=4:*] '' using 1:i with lines lw 1 title columnhead(i)
