# tco_bars.gp: TCO per option as stacked bars by category (clustersim tco -o DIR).
# Data: tco_bars.dat (option, then capex power site operations cloud in $M).
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_bars.png'
set title 'Total cost of ownership by option'
set ylabel 'USD (millions)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set key outside right top
set grid ytics
set xtics rotate by -25
plot 'tco_bars.dat' using 2:xtic(1) title 'capex', \
     '' using 3 title 'power', \
     '' using 4 title 'site', \
     '' using 5 title 'operations', \
     '' using 6 title 'cloud'
