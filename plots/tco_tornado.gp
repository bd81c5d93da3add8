# tco_tornado.gp: tornado of one option's total (clustersim tco -o DIR).
# Data: tco_tornado.dat (rank, input, change at -step, change at +step,
# $M); tco_meta.gp (the option, its total and the step).
load 'tco_meta.gp'
set terminal pngcairo size 1000,600 noenhanced
set output 'tco_tornado.png'
set title sprintf('Sensitivity of the %s total (%s) to each input at -/+%d%% (largest swing on top)', tornado_option, tornado_base, tornado_step_pct)
set xlabel sprintf('change of the %s total (USD millions)', tornado_option)
set style fill solid 0.8 border -1
set grid xtics
set yrange [:] reverse
set key outside right top
set ytics nomirror
plot 'tco_tornado.dat' using (($3)/2):1:(0):($3):($1-0.35):($1+0.35):ytic(2) with boxxyerror lc rgb '#3366cc' title sprintf('input -%d%%', tornado_step_pct), \
     '' using (($4)/2):1:(0):($4):($1-0.35):($1+0.35) with boxxyerror lc rgb '#cc3333' title sprintf('input +%d%%', tornado_step_pct)
