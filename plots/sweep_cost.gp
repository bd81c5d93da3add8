# sweep_cost.gp: cost per utilized GPU-hour of each ownership option
# against utilization (clustersim plot DIR). Data: sweep_cost.dat, one
# block per series: x (the utilization axis), then on-prem, colocation,
# cloud on-demand, reserved 1y, reserved 3y, spot, hybrid (USD).
set datafile missing 'NaN'
set title 'Cost per utilized GPU-hour against utilization'
set xlabel 'utilization of the owned fleet'
set ylabel 'USD per utilized GPU-hour'
set logscale y
set key outside right top
set grid
set terminal pngcairo size 1000,600 noenhanced
set output 'sweep_cost.png'
plot for [c=2:8] 'sweep_cost.dat' index 0 using 1:c with linespoints lw 2 pt 7 \
     title word('on-prem colocation cloud-on-demand cloud-reserved-1y cloud-reserved-3y cloud-spot hybrid', c-1)
set terminal svg size 1000,600 noenhanced background '#ffffff'
set output 'sweep_cost.svg'
replot
