# plot.gp - TLX (best kernel) vs oneDNN, one cluster per benchmark.
# gnuplot -e "datafile='...'; outfile='...'" bench/plot.gp
set terminal pngcairo size 1400,600 noenhanced
set output outfile
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -45 scale 0 font ",9"
set ylabel "GFLOP/s (GOP/s for int8), 1 thread"
set logscale y
set yrange [1:*]
set grid ytics
set key top left box opaque
set lmargin 12
set rmargin 10
set bmargin 9
set title "TLX-generated GEMM / convolution vs oneDNN"
plot datafile using 2:xtic(1) title "TLX", '' using 3 title "oneDNN"
