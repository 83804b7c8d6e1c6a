# frozen_string_literal: true

require 'json'
require 'socket'

# A tiny HTTP/1.1 server on 127.0.0.1 that answers queued [status, headers, body] in order and
# records every request (path, headers, parsed JSON body). One request per connection.
class StubServer
  attr_reader :requests, :answers, :url

  def initialize
    @answers = []
    @requests = []
    @server = TCPServer.new('127.0.0.1', 0)
    @url = "http://127.0.0.1:#{@server.addr[1]}"
    @thread = Thread.new { serve }
  end

  def close
    @thread.kill
    @server.close
  end

  private

  def serve
    loop do
      socket = @server.accept
      handle(socket)
    ensure
      socket&.close
    end
  end

  def handle(socket)
    request_line = socket.gets
    return if request_line.nil?

    headers = {}
    while (line = socket.gets) && line != "\r\n"
      name, value = line.split(':', 2)
      headers[name.downcase] = value.strip
    end
    body = socket.read(headers['content-length'].to_i)
    @requests << [request_line.split[1], headers, body.empty? ? nil : JSON.parse(body)]
    status, answer_headers, answer = @answers.shift || [500, {}, {}]
    text = JSON.generate(answer)
    socket.write("HTTP/1.1 #{status} X\r\nContent-Type: application/json\r\nContent-Length: #{text.bytesize}\r\nConnection: close\r\n")
    answer_headers.each { |name, value| socket.write("#{name}: #{value}\r\n") }
    socket.write("\r\n#{text}")
  end
end
