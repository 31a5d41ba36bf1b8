#include <cstdio>
#include <vector>
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  double side;
  explicit Square(double s) : side(s) {}
  double area() const override { return side * side; }
};
int main() {
  std::vector<Square> squares;
  for (int i = 1; i <= 3; i++)
    squares.push_back(Square(i));
  double total = 0;
  for (const Square &s : squares)
    total += s.area();
  std::printf("total=%g\n", total);
  return total == 14.0 ? 0 : 1;
}
