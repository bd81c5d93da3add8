# sweep_topology.gp: throughput per topology and oversubscription
# (clustersim plot DIR). Data: sweep_topology.dat, one block per series:
# x (oversubscription, or the index of the topology), tokens/s per GPU,
# step time, exposed communication, then the x label.
set datafile missing 'NaN'
stats 'sweep_topology.dat' using 1 nooutput
N = STATS_blocks
set title 'Throughput per topology and oversubscription'
set xlabel 'leaf oversubscription (N:1) or topology'
set ylabel 'tokens/s per GPU'
set yrange [0:*]
set offsets 0.3, 0.3, 0, 0
set key bottom left
set grid
set terminal pngcairo size 1000,600 noenhanced
set output 'sweep_topology.png'
plot for [i=0:N-1] 'sweep_topology.dat' index i using 1:2:xtic(5) with linespoints lw 2 pt 7 title columnheader(2)
set terminal svg size 1000,600 noenhanced background '#ffffff'
set output 'sweep_topology.svg'
replot
