# Measured (points) against fitted (lines) nccl-tests busbw; written by clustersim calibrate.
set terminal pngcairo size 1100,700 noenhanced
set output 'h100-nccl-reference_busbw.png'
set title 'nccl-tests busbw: measured (points) vs calibrated model (lines)'
set logscale x 2
set format x '%.0s%cB'
set xlabel 'message size (bytes, nccl-tests convention)'
set ylabel 'bus bandwidth (GB/s)'
set key top left
set grid
plot \
  'h100-nccl-reference_busbw.dat' index 0 using 1:2 with points pt 7 lc 1 title 'all_reduce 8 ranks 1 node (MAPE 1.7%)', \
  'h100-nccl-reference_busbw.dat' index 0 using 1:3 with lines lw 2 lc 1 notitle, \
  'h100-nccl-reference_busbw.dat' index 1 using 1:2 with points pt 7 lc 2 title 'all_gather 8 ranks 1 node (MAPE 4.5%)', \
  'h100-nccl-reference_busbw.dat' index 1 using 1:3 with lines lw 2 lc 2 notitle, \
  'h100-nccl-reference_busbw.dat' index 2 using 1:2 with points pt 7 lc 3 title 'all_reduce 8 ranks 1 node algo ring (MAPE 5.0%)', \
  'h100-nccl-reference_busbw.dat' index 2 using 1:3 with lines lw 2 lc 3 notitle, \
  'h100-nccl-reference_busbw.dat' index 3 using 1:2 with points pt 7 lc 4 title 'reduce_scatter 8 ranks 1 node (MAPE 4.0%)', \
  'h100-nccl-reference_busbw.dat' index 3 using 1:3 with lines lw 2 lc 4 notitle
