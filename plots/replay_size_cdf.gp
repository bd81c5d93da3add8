# replay_size_cdf.gp: queueing delay and job completion time CDFs by
# job-size class from `clustersim replay -o DIR`. Data: replay_size_cdf.dat,
# one block per size class with jobs (cdf, queueing s, JCT s, each
# sorted; the block's first line is its title, its first row the CDF's 0).
# Log time axes; a queueing delay under 1 s is drawn at 1 s. Run in DIR:
# gnuplot replay_size_cdf.gp
set terminal pngcairo size 1200,560 noenhanced
set output 'replay_size_cdf.png'
f = 'replay_size_cdf.dat'
at1(x) = x < 1 ? 1 : x
# the blocks, and each panel's span with a factor of 2 either side (before
# the log scale, which stats would apply to its values)
stats f using 2 nooutput
n = STATS_blocks
stats f using (at1(column(2))) nooutput
q0 = STATS_min / 2
q1 = STATS_max * 2
stats f using (at1(column(3))) nooutput
c0 = STATS_min / 2
c1 = STATS_max * 2
set multiplot layout 1,2 title 'Trace replay by job size (GPUs asked)'
set logscale x
set xtics ("1 s" 1, "1 min" 60, "10 min" 600, "1 h" 3600, "1 d" 86400, "1 w" 604800, "30 d" 2592000, "1 y" 31536000)
set yrange [0:1.02]
set ylabel 'fraction of the completed jobs'
set grid
set key below autotitle columnheader
set bmargin 7
set xrange [q0:q1]
set title 'queueing delay'
set xlabel 'queueing delay (log scale)'
plot for [i=0:n-1] f index i using (at1(column(2))):1 with steps lw 2
set xrange [c0:c1]
set title 'job completion time'
set xlabel 'job completion time (log scale)'
plot for [i=0:n-1] f index i using (at1(column(3))):1 with steps lw 2
unset multiplot
