exec(bytes.fromhex('7072696e7428312b3129').decode())
