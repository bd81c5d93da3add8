# tco_tornado.gp: tornado of one option's total (clustersim tco -o DIR).
# Data: tco_tornado.dat (rank, input, change at -step, change at +step, $M).
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_tornado.png'
set title 'Sensitivity of the total (largest swing on top)'
set xlabel 'change of the total (USD millions)'
set style fill solid 0.8 border -1
set grid xtics
set yrange [:] reverse
set key outside right top
unset ytics
set ytics nomirror
plot 'tco_tornado.dat' using (($3)/2):1:(0):($3):($1-0.35):($1+0.35):ytic(2) with boxxyerror lc rgb '#3366cc' title 'input -step', \
     '' using (($4)/2):1:(0):($4):($1-0.35):($1+0.35) with boxxyerror lc rgb '#cc3333' title 'input +step'
