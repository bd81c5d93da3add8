# tco_bars.gp: TCO per option as stacked bars by category, the total on
# top (clustersim tco -o DIR). Data: tco_bars.dat (option, then capex power
# site operations cloud and the total in $M); tco_meta.gp (cluster size).
load 'tco_meta.gp'
# series colours: the first 7 of the shared palette (Kelly 1965; report/palette.c,
# checked by tests/check_plot.c)
set linetype 1 lc rgb '#222222' pt 7
set linetype 2 lc rgb '#875692' pt 5
set linetype 3 lc rgb '#f38400' pt 9
set linetype 4 lc rgb '#be0032' pt 13
set linetype 5 lc rgb '#848482' pt 11
set linetype 6 lc rgb '#008856' pt 6
set linetype 7 lc rgb '#e68fac' pt 4
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_bars.png'
set title sprintf('Total cost of ownership by option: %d GPUs over %g years at %.0f%% utilization', scenario_gpus, scenario_years, 100*utilization)
set ylabel 'USD (millions)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set key outside right top
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xtics rotate by -25
plot 'tco_bars.dat' using 2:xtic(1) title 'capex', \
     '' using 3 title 'power', \
     '' using 4 title 'site', \
     '' using 5 title 'operations', \
     '' using 6 title 'cloud', \
     '' using 0:7:(sprintf('%.2f', $7)) with labels offset 0,0.7 notitle
