set terminal pngcairo size 1000,600
set output 'tune-time.png'
set title 'htplaces tune: median time against threads (error bars: 95% CI)'
set xlabel 'threads (N)'
set ylabel 'seconds'
set xtics 1
set mxtics 1
set format x '%.0f'
set xrange [0.5:4.5]
set key outside right top
set grid
plot '-' using 1:2:3:4 with yerrorlines title 'none', '-' using 1:2:3:4 with yerrorlines title 'speedup', '-' using 1:2:3:4 with yerrorlines title 'spread', '-' using 1:2:3:4 with yerrorlines title 'spn', '-' using 1:2:3:4 with yerrorlines title 'auto'
1 10 9.6538444 10.4128223
e
2 5.5 5.25156618 5.74843382
e
2 5.5 5.25156618 5.74843382
e
4 4.4 4.0538444 4.81282226
2 3 0 14.0722193
e
4 4.5 4.25156618 4.74843382
e
set terminal pngcairo size 1000,600
set output 'tune-spn.png'
set title 'htplaces tune: SPN against threads (error bars: 95% CI) (modelled power)'
set xlabel 'threads (N)'
set ylabel 'SPN, 1000 S / (P C), P modelled'
set xtics 1
set mxtics 1
set format x '%.0f'
set xrange [0.5:4.5]
set key outside right top
set grid
plot '-' using 1:2:3:4 with yerrorlines title 'none', '-' using 1:2:3:4 with yerrorlines title 'speedup', '-' using 1:2:3:4 with yerrorlines title 'spread', '-' using 1:2:3:4 with yerrorlines title 'spn', '-' using 1:2:3:4 with yerrorlines title 'auto'
1 10 9.59303102 10.3435901
e
2 9.09090909 8.68212042 9.5037061
e
2 9.09090909 8.68212042 9.5037061
e
4 11.3636364 10.3307394 12.2433329
2 33.3333333 0 79.9520873
e
4 11.1111111 10.5010005 11.7285413
e
set terminal svg size 1000,600
set output 'tune-time.svg'
set title 'htplaces tune: median time against threads (error bars: 95% CI)'
set xlabel 'threads (N)'
set ylabel 'seconds'
set xtics 1
set mxtics 1
set format x '%.0f'
set xrange [0.5:4.5]
set key outside right top
set grid
plot '-' using 1:2:3:4 with yerrorlines title 'none', '-' using 1:2:3:4 with yerrorlines title 'speedup', '-' using 1:2:3:4 with yerrorlines title 'spread', '-' using 1:2:3:4 with yerrorlines title 'spn', '-' using 1:2:3:4 with yerrorlines title 'auto'
1 10 9.6538444 10.4128223
e
2 5.5 5.25156618 5.74843382
e
2 5.5 5.25156618 5.74843382
e
4 4.4 4.0538444 4.81282226
2 3 0 14.0722193
e
4 4.5 4.25156618 4.74843382
e
set terminal svg size 1000,600
set output 'tune-spn.svg'
set title 'htplaces tune: SPN against threads (error bars: 95% CI) (modelled power)'
set xlabel 'threads (N)'
set ylabel 'SPN, 1000 S / (P C), P modelled'
set xtics 1
set mxtics 1
set format x '%.0f'
set xrange [0.5:4.5]
set key outside right top
set grid
plot '-' using 1:2:3:4 with yerrorlines title 'none', '-' using 1:2:3:4 with yerrorlines title 'speedup', '-' using 1:2:3:4 with yerrorlines title 'spread', '-' using 1:2:3:4 with yerrorlines title 'spn', '-' using 1:2:3:4 with yerrorlines title 'auto'
1 10 9.59303102 10.3435901
e
2 9.09090909 8.68212042 9.5037061
e
2 9.09090909 8.68212042 9.5037061
e
4 11.3636364 10.3307394 12.2433329
2 33.3333333 0 79.9520873
e
4 11.1111111 10.5010005 11.7285413
e
