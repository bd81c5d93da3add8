# plan_front.gp: the plan's cost against its time to train (clustersim plan
# -o DIR). Every evaluated plan as a dot, coloured by ownership option; the
# Pareto front as a line with labels; the deadline and the budget as dashed
# lines. Data: plan_points.dat (days, $M, option index, option name),
# plan_front.dat (days, $M, label), plan_meta.gp (deadline, budget).
load 'plan_meta.gp'
# series colours: the first 7 of the shared palette (Kelly 1965; report/palette.c,
# checked by tests/check_plot.c)
set linetype 1 lc rgb '#222222' pt 7
set linetype 2 lc rgb '#875692' pt 5
set linetype 3 lc rgb '#f38400' pt 9
set linetype 4 lc rgb '#be0032' pt 13
set linetype 5 lc rgb '#848482' pt 11
set linetype 6 lc rgb '#008856' pt 6
set linetype 7 lc rgb '#e68fac' pt 4
set terminal pngcairo size 1100,650 noenhanced
set output 'plan_front.png'
set title sprintf('Plan %s: cost against time to train (means)', plan_name)
set xlabel 'time to train (days)'
set ylabel 'cost (million USD)'
set logscale xy
set grid
set key outside right top
set arrow from deadline_days, graph 0 to deadline_days, graph 1 nohead dt 2 lw 2 lc rgb 'red'
set label sprintf('deadline %.0f d', deadline_days) at deadline_days, graph 0.97 left offset 0.5,0 tc rgb 'red'
if (budget_musd > 0) {
    set arrow from graph 0, first budget_musd to graph 1, first budget_musd nohead dt 2 lw 2 lc rgb 'dark-green'
    set label sprintf('budget $%.3gM', budget_musd) at graph 0.01, first budget_musd offset 0,0.7 tc rgb 'dark-green'
}
# one series per ownership option (plan_meta.gp: option_names, 7 words), each
# with its palette point type, a little smaller than the one before so that
# options at the same cost (on-prem and colocation) both show
plot for [k=0:6] 'plan_points.dat' using 1:($3 == k ? $2 : 1/0) with points lt k+1 ps (1.8 - 0.15*k) title word(option_names, k+1), \
     'plan_front.dat' using 1:2 with linespoints lw 2 pt 5 ps 1.2 lc rgb 'black' title 'Pareto front', \
     '' using 1:2:3 with labels left offset 0.8,0.4 font ',8' notitle
