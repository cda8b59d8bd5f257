# SPDX-License-Identifier: GPL-2.0-or-later
# Values computed by the interpreter: a class, blocks, a hash, a Struct,
# format, a fiber, big integers, a Digest (a C extension of the root).
require "digest"

class Shape
  attr_reader :name
  def initialize(name, sides) = (@name, @sides = name, sides)
  def angles = (@sides - 2) * 180
end

shapes = [Shape.new("triangle", 3), Shape.new("square", 4), Shape.new("hexagon", 6)]
puts shapes.map { |s| "#{s.name}=#{s.angles}" }.join(",")
counts = Hash.new(0)
"the quick brown fox jumps over the lazy dog the end".split.each { |w| counts[w] += 1 }
puts counts.sort_by { |w, n| [-n, w] }.first(3).map { |w, n| "#{w}:#{n}" }.join(" ")
Point = Struct.new(:x, :y) { def norm2 = x * x + y * y }
puts format("point %s norm2 %d pi %.6f", Point.new(3, 4).to_a.inspect, Point.new(3, 4).norm2, Math::PI)
fib = Fiber.new { a, b = 0, 1; loop { Fiber.yield a; a, b = b, a + b } }
puts "fib " + Array.new(12) { fib.resume }.join(" ")
puts "2**100 #{2**100}"
puts "sha256 #{Digest::SHA256.hexdigest("asymu")[0, 16]}"
