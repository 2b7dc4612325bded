import sys

def main():
    fn = globals()['__buil' + 'tins__']
    return globals()['ev' + 'al'](sys.argv[1])

main()
