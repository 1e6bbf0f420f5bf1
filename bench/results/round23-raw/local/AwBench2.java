package dev.tally.internal.readback;
import java.util.SplittableRandom;
public class AwBench2 {
    static double runOld(double[] ages) { OldAgeWindow o = new OldAgeWindow(); for (double v : ages) o.add(v); return o.median(); }
    static double runNew(double[] ages) { AgeWindow o = new AgeWindow(); for (double v : ages) o.add(v); return o.median(); }
    public static void main(String[] a) {
        int n = 2_000_000; SplittableRandom r = new SplittableRandom(1);
        double[] drift = new double[n], rnd = new double[n], steady = new double[n];
        double age = 0.2;
        for (int i = 0; i < n; i++) { age = Math.max(0.01, age + (r.nextDouble() - 0.5) * 0.02); drift[i] = age + r.nextDouble() * 0.05; rnd[i] = r.nextDouble(); steady[i] = 1.0 + r.nextDouble() * 0.01; }
        double sink = 0;
        for (int round = 0; round < 4; round++) {
            for (double[][] p : new double[][][]{{drift}, {rnd}, {steady}}) {
                long t0 = System.nanoTime(); sink += runOld(p[0]); long t1 = System.nanoTime(); sink += runNew(p[0]); long t2 = System.nanoTime();
                System.out.printf("%s add: sorted %.1f ns, blocked %.1f ns%n", p[0] == drift ? "drift " : p[0] == rnd ? "random" : "steady", (t1 - t0) / (double) n, (t2 - t1) / (double) n);
            }
        }
        System.out.println(sink > 0);
    }
}
