// tinyxml2-driver.cpp: parses FILE with tinyxml2 and counts the root's child
// elements and their attributes (bench/results/real-programs.md).
#include <cstdio>
#include "tinyxml2.h"
int main(int argc, char **argv)
{
    tinyxml2::XMLDocument doc;
    if (argc < 2 || doc.LoadFile(argv[1]) != tinyxml2::XML_SUCCESS) {
        std::fprintf(stderr, "cannot parse\n");
        return 1;
    }
    int elems = 0, attrs = 0;
    for (const tinyxml2::XMLElement *e = doc.RootElement()->FirstChildElement(); e; e = e->NextSiblingElement()) {
        elems++;
        for (const tinyxml2::XMLAttribute *a = e->FirstAttribute(); a; a = a->Next())
            attrs++;
    }
    std::printf("elements=%d attributes=%d\n", elems, attrs);
    return 0;
}
