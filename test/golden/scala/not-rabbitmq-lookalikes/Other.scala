import com.example.Bus

object Other {
  def run(channel: Bus): Unit = channel.basicPublish("", "hello", null, Array[Byte]())
}
