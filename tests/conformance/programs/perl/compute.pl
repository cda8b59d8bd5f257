# SPDX-License-Identifier: GPL-2.0-or-later
# Values computed by the interpreter: a hash, sort, sprintf, a regex
# substitution, an md5 (Digest::MD5, an XS module: a shared object loaded
# from the root) and a closure counter.
use strict;
use warnings;
use Digest::MD5 qw(md5_hex);
use List::Util qw(sum max);

my %words;
$words{$_}++ for split /\s+/, "the quick brown fox jumps over the lazy dog the end";
print join(",", map { "$_=$words{$_}" } sort keys %words), "\n";
my @squares = map { $_ * $_ } 1 .. 1000;
printf "sum of squares %d, max %d\n", sum(@squares), max(@squares);
my $text = "asymu runs perl";
(my $upper = $text) =~ s/(\w+)/\u$1/g;
print "$upper\n";
print "md5 ", md5_hex("asymu"), "\n";
my $counter = do { my $n = 0; sub { return ++$n } };
$counter->() for 1 .. 41;
printf "counter %d, pi %.6f\n", $counter->(), 4 * atan2(1, 1);
