// The few JSON shapes CuratorBench prints (numbers, arrays of numbers, strings), without a library.
final class Json {
  private Json() {}

  static String array(double[] values) {
    StringBuilder sb = new StringBuilder(values.length * 12).append('[');
    for (int i = 0; i < values.length; i++) {
      if (i > 0) sb.append(',');
      sb.append(values[i]);
    }
    return sb.append(']').toString();
  }

  static String array(java.util.List<Double> values) {
    double[] array = new double[values.size()];
    for (int i = 0; i < array.length; i++) array[i] = values.get(i);
    return array(array);
  }

  static String strings(java.util.List<String> values) {
    StringBuilder sb = new StringBuilder().append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) sb.append(',');
      sb.append(string(values.get(i)));
    }
    return sb.append(']').toString();
  }

  static String string(String value) {
    StringBuilder sb = new StringBuilder().append('"');
    for (char c : value.toCharArray()) {
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    return sb.append('"').toString();
  }
}
