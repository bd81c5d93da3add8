# replay_timeline.gp: the cluster over time from `clustersim replay -o DIR`:
# GPUs allocated and busy against the capacity, the GPUs asked by the jobs
# running or waiting (allocated + waiting: above the capacity the queue
# grows), and the trace's own demand (its jobs as if none had waited).
# Data: replay_timeline.dat (time_h, capacity, allocated, busy, allocated +
# waiting, trace demand; GPUs averaged over each bin). When the busiest bin
# uses under a tenth of the capacity, the GPU axis is logarithmic, so that
# a nearly empty cluster still shows its load. Run in DIR:
# gnuplot replay_timeline.gp
set terminal pngcairo size 1000,520 noenhanced
set output 'replay_timeline.png'
d = 'replay_timeline.dat'
stats d using 1 nooutput
tmax = STATS_max
stats d using 2 nooutput
cap = STATS_max
stats d using 5 nooutput
peak = STATS_max
# hours for a replay of up to 3 days, else days
if (tmax > 72) { tscale = 24.0; tunit = 'days' } else { tscale = 1.0; tunit = 'hours' }
set title 'Trace replay: GPUs over time against the capacity'
set xlabel sprintf('time since the first submission (%s)', tunit)
set grid
set key outside right top
if (peak < cap / 10.0) {
    set logscale y
    set ylabel 'GPUs (average over each bin, log scale)'
    set yrange [0.1:cap * 3]
    plot d using ($1/tscale):3 with lines lw 2 lc rgb '#6baed6' title 'allocated', \
         '' using ($1/tscale):4 with lines lw 1 lc rgb '#08519c' title 'busy', \
         '' using ($1/tscale):2 with lines lw 2 lc rgb 'black' title 'capacity', \
         '' using ($1/tscale):5 with lines lw 2 dt 2 lc rgb '#d94801' title 'allocated + waiting', \
         '' using ($1/tscale):6 with lines lw 1 dt 3 lc rgb '#238b45' title 'trace demand (no waiting)'
} else {
    set ylabel 'GPUs (average over each bin)'
    set yrange [0:*]
    plot d using ($1/tscale):3 with filledcurves y1=0 fc rgb '#c6dbef' title 'allocated', \
         '' using ($1/tscale):4 with lines lw 2 lc rgb '#08519c' title 'busy', \
         '' using ($1/tscale):2 with lines lw 2 lc rgb 'black' title 'capacity', \
         '' using ($1/tscale):5 with lines lw 2 dt 2 lc rgb '#d94801' title 'allocated + waiting', \
         '' using ($1/tscale):6 with lines lw 1 dt 3 lc rgb '#238b45' title 'trace demand (no waiting)'
}
