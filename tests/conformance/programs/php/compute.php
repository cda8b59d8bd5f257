<?php
// SPDX-License-Identifier: GPL-2.0-or-later
// Values computed by the interpreter: arrays, closures, sprintf, a
// generator, md5, a class with a typed property, preg_replace_callback.
$words = explode(" ", "the quick brown fox jumps over the lazy dog the end");
$counts = array_count_values($words);
arsort($counts);
echo "the=", $counts["the"], " distinct=", count($counts), "\n";
$squares = array_map(fn($x) => $x * $x, range(1, 1000));
printf("sum of squares %d, pi %.6f\n", array_sum($squares), M_PI);
function fib(int $n): Generator {
    [$a, $b] = [0, 1];
    for ($i = 0; $i < $n; $i++) { yield $a; [$a, $b] = [$b, $a + $b]; }
}
echo "fib ", implode(" ", iterator_to_array(fib(12))), "\n";
final class Account {
    public function __construct(private int $cents = 0) {}
    public function add(int $c): static { $this->cents += $c; return $this; }
    public function __toString(): string { return sprintf("%d.%02d", intdiv($this->cents, 100), $this->cents % 100); }
}
echo "account ", (new Account())->add(1999)->add(1), "\n";
echo preg_replace_callback('/\w+/', fn($m) => ucfirst($m[0]), "asymu runs php"), "\n";
echo "md5 ", md5("asymu"), " PHP_INT_SIZE ", PHP_INT_SIZE, "\n";
