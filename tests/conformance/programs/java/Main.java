// SPDX-License-Identifier: GPL-2.0-or-later
// A real Java program for asymu's programs table: a child process
// (ProcessBuilder: jspawnhelper, then /usr/bin/expr), a hot loop that the
// JIT compiles with System.gc() calls in it, threads with a shared
// counter, a HashMap, String.format and BigInteger.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

public class Main {
    public static void main(String[] args) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/expr", "6", "*", "7").redirectErrorStream(true).start();
        String line;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            line = r.readLine();
        }
        System.out.println("child said " + line + ", exit " + p.waitFor());

        long sum = 0;
        List<long[]> keep = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 200_000; i++) {
                long[] a = new long[4];
                a[i & 3] = i;
                sum += a[i & 3] % 7;
                if ((i & 0xffff) == 0)
                    keep.add(a);
            }
            System.gc();
        }
        System.out.println("hot loop " + sum + ", kept " + keep.size());

        AtomicLong counter = new AtomicLong();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 100_000; i++)
                    counter.incrementAndGet();
            });
            threads[t].start();
        }
        for (Thread t : threads)
            t.join();
        System.out.println("threads " + counter.get());

        Map<String, Integer> counts = new HashMap<>();
        for (String w : "the quick brown fox jumps over the lazy dog the end".split(" "))
            counts.merge(w, 1, Integer::sum);
        System.out.println(new TreeMap<>(counts));
        System.out.println(String.format("2^100 %s, pi %.6f", BigInteger.TWO.pow(100), Math.PI));
    }
}
